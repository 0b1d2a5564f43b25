sysbench fileio --file-io-mode=foo --file-test-mode=rndrd run
