sysbench fileio --max-time=5 --verbosity=0 --file-num=1 --file-total-size=16K cleanup
