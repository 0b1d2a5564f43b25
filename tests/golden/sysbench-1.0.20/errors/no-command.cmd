sysbench fileio
