sysbench fileio --rate=1.5 cleanup
