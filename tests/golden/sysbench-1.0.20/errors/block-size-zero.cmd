sysbench fileio --file-block-size=0 --file-test-mode=rndrd run
