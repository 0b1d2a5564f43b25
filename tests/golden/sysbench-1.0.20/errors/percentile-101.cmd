sysbench fileio --percentile=101 --file-test-mode=rndrd run
