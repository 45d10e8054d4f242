// Command vcsim runs govmomi's vCenter simulator (v0.46.3) with faithful
// storage vMotion (see relocate.go and README.md). Everything other than
// RelocateVM_Task is the stock simulator.
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/vmware/govmomi"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/simulator/esx"
	"github.com/vmware/govmomi/vim25/types"

	// Optional endpoints, registered as stock vcsim does.
	_ "github.com/vmware/govmomi/cns/simulator"
	_ "github.com/vmware/govmomi/eam/simulator"
	_ "github.com/vmware/govmomi/lookup/simulator"
	_ "github.com/vmware/govmomi/pbm/simulator"
	_ "github.com/vmware/govmomi/ssoadmin/simulator"
	_ "github.com/vmware/govmomi/sts/simulator"
	_ "github.com/vmware/govmomi/vapi/appliance/simulator"
	_ "github.com/vmware/govmomi/vapi/cis/tasks/simulator"
	_ "github.com/vmware/govmomi/vapi/cluster/simulator"
	_ "github.com/vmware/govmomi/vapi/crypto/simulator"
	_ "github.com/vmware/govmomi/vapi/esx/settings/simulator"
	_ "github.com/vmware/govmomi/vapi/namespace/simulator"
	_ "github.com/vmware/govmomi/vapi/simulator"
	_ "github.com/vmware/govmomi/vapi/vcenter/consumptiondomains/simulator"
	_ "github.com/vmware/govmomi/vapi/vm/simulator"
	_ "github.com/vmware/govmomi/vsan/simulator"
)

// Options are the settings beyond the stock model counts.
type Options struct {
	Listen       string        // host:port, port 0 = a free port
	Inventory    string        // JSON world description; replaces the counts model
	RateMBps     float64       // simulated storage vMotion copy rate, MiB/s; <= 0 = instantaneous
	RelocateHold time.Duration // longest a copied relocation waits for POST /opensdrs/relocations; 0 = none
	Stock        bool          // stock RelocateVM_Task, no accessibility watcher, no admin endpoint
	DsCapacityGB float64       // counts model: capacity of every datastore (0 = stock 10 TB)
	DsRoot       string        // parent directory of inventory datastore directories ("" = os.TempDir())
	TLS          bool
	Username     string
	Password     string
	WatchEvery   time.Duration // datastore directory polling period
	// PerfOmitCounters are full counter names removed from the PerformanceManager (perf.go).
	PerfOmitCounters []string
}

// Server is a running simulator.
type Server struct {
	URL   *url.URL
	Model *simulator.Model
	srv   *simulator.Server
	dirs  []string
	stop  chan struct{}
	reloc *relocator
	perf  *perfService
}

// Start builds the world and starts serving. Only one Server may run per process
// (the simulator keeps its registry in the global simulator.Map).
func Start(model *simulator.Model, o Options) (*Server, error) {
	if o.Listen == "" {
		o.Listen = "127.0.0.1:0"
	}
	if o.WatchEvery <= 0 {
		o.WatchEvery = 200 * time.Millisecond
	}
	var counters *perfCounters
	if o.Stock {
		if len(o.PerfOmitCounters) > 0 {
			return nil, fmt.Errorf("-perf-omit-counter needs the OpenSDRS PerformanceManager, which -stock turns off")
		}
	} else {
		var err error
		if counters, err = newPerfCounters(o.PerfOmitCounters); err != nil {
			return nil, err
		}
	}
	var inv *Inventory
	if o.Inventory != "" {
		var err error
		if inv, err = loadInventory(o.Inventory); err != nil {
			return nil, err
		}
		model.Datacenter, model.Folder, model.Cluster, model.ClusterHost, model.Host = 0, 0, 0, 0, 0
		model.Datastore, model.Machine, model.Pool, model.App, model.Pod = 0, 0, 0, 0, 0
		model.Portgroup, model.PortgroupNSX, model.OpaqueNetwork = 0, 0, 0
	}

	u := &url.URL{Host: o.Listen}
	if o.Username != "" {
		u.User = url.UserPassword(o.Username, o.Password)
	}
	if err := updateHostTemplate(u.Host); err != nil {
		return nil, err
	}
	model.ServiceContent.About.OsType = runtime.GOOS + "-" + runtime.GOARCH

	if err := model.Create(); err != nil {
		return nil, err
	}
	s := &Server{Model: model, stop: make(chan struct{})}

	mux := http.NewServeMux()
	model.Service.ServeMux = mux
	model.Service.RegisterEndpoints = true
	model.Service.Listen = u
	if o.TLS {
		model.Service.TLS = new(tls.Config)
	}

	if !o.Stock {
		s.reloc = newRelocator(o.RateMBps, o.RelocateHold)
		mux.HandleFunc("/opensdrs/datastore", s.reloc.adminHandler)
		mux.HandleFunc("/opensdrs/relocations", s.reloc.hold.adminHandler)
		perf, err := installPerf(model, counters)
		if err != nil {
			return nil, err
		}
		s.perf = perf
		mux.HandleFunc("/opensdrs/perf", s.perf.adminHandler)
	}

	s.srv = model.Service.NewServer()
	s.URL = s.srv.URL

	fail := func(err error) (*Server, error) {
		s.Close()
		return nil, err
	}

	if inv != nil {
		ctx := context.Background()
		c, err := govmomi.NewClient(ctx, s.URL, true)
		if err != nil {
			return fail(err)
		}
		err = inv.build(ctx, c.Client, model, o.DsRoot, &s.dirs)
		_ = c.Logout(ctx)
		if err != nil {
			return fail(err)
		}
	} else if o.DsCapacityGB > 0 {
		for _, e := range simulator.Map.All("Datastore") {
			setDatastore(e.Reference(), gbToBytes(o.DsCapacityGB), nil)
		}
	}
	if err := finishWorld(); err != nil {
		return fail(err)
	}

	if s.reloc != nil {
		s.reloc.reconcileSwaps() // the VMs the inventory powered on
		ctx := simulator.SpoofContext()
		for _, e := range ctx.Map.All("Datastore") {
			initIorm(ctx, e.(*simulator.Datastore))
		}
		s.reloc.install(simulator.Map)
		s.reloc.syncAccessibility()
		go s.reloc.watch(o.WatchEvery, s.stop)
	}
	return s, nil
}

// Close stops the server and removes the datastore directories.
func (s *Server) Close() {
	select {
	case <-s.stop:
		return
	default:
		close(s.stop)
	}
	if s.srv != nil {
		s.srv.Close()
	}
	s.Model.Remove()
	for _, d := range s.dirs {
		_ = os.RemoveAll(d)
	}
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "sdrs-rule" {
		os.Exit(storageDrsCmd(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == "relocate" {
		os.Exit(relocateCmd(os.Args[2:]))
	}
	model := simulator.VPX()

	flag.IntVar(&model.Datacenter, "dc", model.Datacenter, "Number of datacenters")
	flag.IntVar(&model.Cluster, "cluster", model.Cluster, "Number of clusters")
	flag.IntVar(&model.ClusterHost, "host", model.ClusterHost, "Number of hosts per cluster")
	flag.IntVar(&model.Host, "standalone-host", model.Host, "Number of standalone hosts")
	flag.IntVar(&model.Datastore, "ds", model.Datastore, "Number of local datastores")
	flag.IntVar(&model.Machine, "vm", model.Machine, "Number of virtual machines per resource pool")
	flag.IntVar(&model.Pool, "pool", model.Pool, "Number of resource pools per compute resource")
	flag.IntVar(&model.App, "app", model.App, "Number of virtual apps per compute resource")
	flag.IntVar(&model.Pod, "pod", model.Pod, "Number of storage pods per datacenter")
	flag.IntVar(&model.Portgroup, "pg", model.Portgroup, "Number of port groups")
	flag.IntVar(&model.PortgroupNSX, "pg-nsx", model.PortgroupNSX, "Number of NSX backed port groups")
	flag.IntVar(&model.OpaqueNetwork, "nsx", model.OpaqueNetwork, "Number of NSX backed opaque networks")
	flag.IntVar(&model.Folder, "folder", model.Folder, "Number of folders")
	flag.BoolVar(&model.Autostart, "autostart", model.Autostart, "Autostart model created VMs")
	v := &model.ServiceContent.About.ApiVersion
	flag.StringVar(v, "api-version", *v, "API version")

	var o Options
	flag.StringVar(&o.Listen, "l", "127.0.0.1:0", "Listen address (port 0 = a free port)")
	flag.BoolVar(&o.TLS, "tls", true, "Enable TLS")
	flag.StringVar(&o.Username, "username", "", "Login username (any username allowed by default)")
	flag.StringVar(&o.Password, "password", "", "Login password (any password allowed by default)")
	flag.StringVar(&o.Inventory, "inventory", "", "JSON world description (replaces the counts model; see README.md)")
	flag.Float64Var(&o.RateMBps, "relocate-rate-mbps", 1000, "Simulated storage vMotion copy rate in MiB/s (<= 0: instantaneous)")
	flag.DurationVar(&o.RelocateHold, "relocate-hold", 0, "After its simulated copy, a storage vMotion waits up to this long for POST /opensdrs/relocations task=<task> (the storage's copy done) before it commits; 0 = no wait")
	flag.BoolVar(&o.Stock, "stock", false, "Stock vcsim RelocateVM_Task (no storage vMotion, no accessibility watcher, no admin endpoints, stock PerformanceManager)")
	flag.Float64Var(&o.DsCapacityGB, "ds-capacity-gb", 0, "Counts model: capacity of every datastore in GiB (0 = stock 10 TiB)")
	flag.StringVar(&o.DsRoot, "ds-root", "", "Parent directory for -inventory datastore directories (default: temp dir)")
	flag.Func("perf-omit-counter", "Remove counters (full names group.name.rollup, comma-separated; repeatable) from the PerformanceManager", func(v string) error {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				o.PerfOmitCounters = append(o.PerfOmitCounters, name)
			}
		}
		return nil
	})
	urlFile := flag.String("url-file", "", "Also write the URL to this file (written atomically once serving)")
	flag.BoolVar(&simulator.Trace, "trace", simulator.Trace, "Trace SOAP to stderr")
	flag.Parse()

	esx.HostSystem.Summary.Hardware.Vendor += " (govmomi simulator)"
	model.ServiceContent.About.FullName += " (govmomi simulator)"

	s, err := Start(model, o)
	if err != nil {
		log.Fatal(err)
	}

	fmt.Printf("VCSIM_URL=%s\n", s.URL)
	fmt.Printf("export GOVC_URL=%s GOVC_SIM_PID=%d\n", s.URL, os.Getpid())
	if *urlFile != "" {
		tmp := *urlFile + ".tmp"
		if err := os.WriteFile(tmp, []byte(s.URL.String()+"\n"), 0o600); err != nil {
			s.Close()
			log.Fatal(err)
		}
		if err := os.Rename(tmp, *urlFile); err != nil {
			s.Close()
			log.Fatal(err)
		}
	}

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	s.Close()
}

// updateHostTemplate is stock vcsim's: host templates point at the listen address.
func updateHostTemplate(ip string) error {
	addr, port, err := net.SplitHostPort(ip)
	if err != nil {
		return err
	}
	esx.HostSystem.Summary.ManagementServerIp = addr
	if port != "0" {
		n, err := strconv.Atoi(port)
		if err != nil {
			return err
		}
		esx.HostSystem.Summary.Config.Port = int32(n)
	}

	nics := [][]types.HostVirtualNic{
		esx.HostConfigInfo.Network.Vnic,
		esx.HostConfigInfo.Vmotion.NetConfig.CandidateVnic,
	}
	for _, nic := range esx.HostConfigInfo.VirtualNicManagerInfo.NetConfig {
		nics = append(nics, nic.CandidateVnic)
	}
	for _, nic := range nics {
		for i := range nic {
			nic[i].Spec.Ip.IpAddress = addr
		}
	}
	return nil
}
