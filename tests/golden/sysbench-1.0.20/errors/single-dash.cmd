sysbench fileio -t run
