sysbench fileio --file-total-size=8M --file-num=4 --verbosity=4 prepare
