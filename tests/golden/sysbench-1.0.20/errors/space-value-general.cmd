sysbench --threads 2 fileio --file-test-mode=rndrd run
