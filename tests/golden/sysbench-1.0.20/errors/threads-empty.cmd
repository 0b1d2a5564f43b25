sysbench fileio --threads= run
