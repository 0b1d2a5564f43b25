sysbench fileio --events=x cleanup
