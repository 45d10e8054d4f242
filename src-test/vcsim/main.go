package main

import _ "github.com/vmware/govmomi/simulator"

func main() {}
