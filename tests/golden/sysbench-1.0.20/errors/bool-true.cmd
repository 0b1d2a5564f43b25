sysbench fileio --validate=true --file-num=1 --file-total-size=16K cleanup
