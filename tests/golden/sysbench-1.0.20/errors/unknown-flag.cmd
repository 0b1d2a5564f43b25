sysbench fileio --bogus cleanup
