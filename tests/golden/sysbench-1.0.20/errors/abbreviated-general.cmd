sysbench fileio --thread=2 --file-test-mode=rndrd run
