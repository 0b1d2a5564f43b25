sysbench fileio --time=10s --file-test-mode=rndrd run
