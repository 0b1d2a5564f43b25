sysbench fileio --verbosity=6 cleanup
