package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/vmware/govmomi"
	"github.com/vmware/govmomi/find"
	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/vim25/types"
)

// relocateCmd is a minimal client, used only to issue a RelocateVM_Task with
// per-disk locators (govc vm.migrate has no per-disk option). Results are
// checked with govc.
//
//	vcsim relocate -u URL [-dc DC] -vm NAME [-ds DATASTORE] [-disk NAME_OR_KEY=DATASTORE]...
func relocateCmd(args []string) int {
	fs := flag.NewFlagSet("relocate", flag.ContinueOnError)
	u := fs.String("u", os.Getenv("GOVC_URL"), "simulator URL (default $GOVC_URL)")
	dcName := fs.String("dc", "", "datacenter (default: the only one)")
	vmName := fs.String("vm", "", "virtual machine")
	dsName := fs.String("ds", "", "spec.datastore: the VM home and every disk not given with -disk")
	var disks multi
	fs.Var(&disks, "disk", "DISK=DATASTORE: a disk locator; DISK is the disk file's base name (disk1 for [ds] vm/disk1.vmdk), its label, or its key")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *vmName == "" || *u == "" || (*dsName == "" && len(disks) == 0) {
		fmt.Fprintln(os.Stderr, "usage: vcsim relocate -u URL -vm NAME [-ds DS] [-disk DISK=DS]...")
		return 2
	}
	if err := doRelocate(*u, *dcName, *vmName, *dsName, disks); err != nil {
		fmt.Fprintln(os.Stderr, "relocate:", err)
		return 1
	}
	fmt.Println("OK")
	return 0
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

// connect logs in to the simulator at rawURL (credentials in the URL) and returns a finder set
// to the datacenter (the only one when dcName is empty); logout ends the session.
func connect(ctx context.Context, rawURL, dcName string) (c *govmomi.Client, f *find.Finder, logout func(), err error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, nil, nil, err
	}
	c, err = govmomi.NewClient(ctx, u, true)
	if err != nil {
		return nil, nil, nil, err
	}
	logout = func() { _ = c.Logout(ctx) }
	f = find.NewFinder(c.Client, true)
	dc, err := f.DatacenterOrDefault(ctx, dcName)
	if err != nil {
		logout()
		return nil, nil, nil, err
	}
	f.SetDatacenter(dc)
	return c, f, logout, nil
}

func doRelocate(rawURL, dcName, vmName, dsName string, disks []string) error {
	ctx := context.Background()
	_, f, logout, err := connect(ctx, rawURL, dcName)
	if err != nil {
		return err
	}
	defer logout()
	vm, err := f.VirtualMachine(ctx, vmName)
	if err != nil {
		return err
	}
	var spec types.VirtualMachineRelocateSpec
	if dsName != "" {
		ds, err := f.Datastore(ctx, dsName)
		if err != nil {
			return err
		}
		ref := ds.Reference()
		spec.Datastore = &ref
	}
	devices, err := vm.Device(ctx)
	if err != nil {
		return err
	}
	for _, d := range disks {
		name, dsn, ok := strings.Cut(d, "=")
		if !ok {
			return fmt.Errorf("-disk %q: want DISK=DATASTORE", d)
		}
		disk := findDisk(devices, name)
		if disk == nil {
			return fmt.Errorf("vm %s has no disk %q", vmName, name)
		}
		ds, err := f.Datastore(ctx, dsn)
		if err != nil {
			return err
		}
		spec.Disk = append(spec.Disk, types.VirtualMachineRelocateSpecDiskLocator{DiskId: disk.Key, Datastore: ds.Reference()})
	}
	task, err := vm.Relocate(ctx, spec, types.VirtualMachineMovePriorityDefaultPriority)
	if err != nil {
		return err
	}
	return task.Wait(ctx)
}

func findDisk(devices object.VirtualDeviceList, name string) *types.VirtualDisk {
	for _, dev := range devices.SelectByType((*types.VirtualDisk)(nil)) {
		d := dev.(*types.VirtualDisk)
		if strconv.Itoa(int(d.Key)) == name || devices.Name(d) == name {
			return d
		}
		if b := backingOf(d); b != nil && strings.HasSuffix(b.FileName, "/"+name+".vmdk") {
			return d
		}
	}
	return nil
}
