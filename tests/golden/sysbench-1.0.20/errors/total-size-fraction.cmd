sysbench fileio --file-total-size=1.5G cleanup
