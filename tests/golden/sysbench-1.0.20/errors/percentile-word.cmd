sysbench fileio --percentile=x cleanup
