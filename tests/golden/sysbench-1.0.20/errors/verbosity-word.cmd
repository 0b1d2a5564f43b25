sysbench fileio --verbosity=x cleanup
