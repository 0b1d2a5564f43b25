sysbench fileio --time=0 --verbosity=1 --file-num=1 --file-total-size=16K cleanup
