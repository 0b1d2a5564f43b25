sysbench fileio --threads=0 run
