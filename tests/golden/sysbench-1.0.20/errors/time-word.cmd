sysbench fileio --time=abc --file-test-mode=rndrd run
