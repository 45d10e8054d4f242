package main

import "crypto/tls"

func insecureTLS() *tls.Config { return &tls.Config{InsecureSkipVerify: true} } // test server's self-signed certificate
