sysbench fileio --file-test-mode=foo run
