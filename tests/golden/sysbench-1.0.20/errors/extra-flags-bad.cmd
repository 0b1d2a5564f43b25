sysbench fileio --file-extra-flags=foo cleanup
