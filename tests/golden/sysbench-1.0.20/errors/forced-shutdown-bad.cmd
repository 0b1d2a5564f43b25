sysbench fileio --forced-shutdown=x cleanup
