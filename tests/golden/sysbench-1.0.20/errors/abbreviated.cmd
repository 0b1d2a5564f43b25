sysbench fileio --file-test-mo=rndrd run
