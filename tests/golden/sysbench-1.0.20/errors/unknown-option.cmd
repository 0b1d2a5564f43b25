sysbench fileio --bogus=1 run
