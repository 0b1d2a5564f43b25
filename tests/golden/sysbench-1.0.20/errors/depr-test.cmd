sysbench --test=fileio --file-num=1 --file-total-size=16K cleanup
