sysbench fileio run
