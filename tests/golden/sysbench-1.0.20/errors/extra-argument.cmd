sysbench fileio --file-test-mode=rndrd run prepare
