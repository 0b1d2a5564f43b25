sysbench fileio --threads=1.5 cleanup
