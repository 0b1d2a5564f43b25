sysbench fileio --rate=x cleanup
