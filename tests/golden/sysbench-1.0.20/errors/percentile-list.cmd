sysbench fileio --percentile=50,99 cleanup
