sysbench fileio --file-io-mode=foo cleanup
