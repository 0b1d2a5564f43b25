sysbench fileio --threads=x run
