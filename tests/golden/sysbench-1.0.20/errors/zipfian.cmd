sysbench fileio --rand-zipfian-exp=0.5 cleanup
