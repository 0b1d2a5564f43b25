sysbench fileio --file-test-mode=foo --file-num=1 --file-total-size=16K cleanup
