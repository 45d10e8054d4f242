package main

import (
	"sync"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

// For an authenticated call the simulator's dispatcher prefers ctx.Session.Get(ref) over what the
// registry hook returns, and Session.Get falls back to the stock object. So a hook that routes a
// method to one of this simulator's wrappers places the wrapper in the caller's session registry,
// and the wrapper's method takes it out again. Two calls at once on one object in one session (the
// applier's relocations, two Storage DRS changes on the pod's StorageResourceManager) share the
// placement: it leaves with the last of them. Removed by the first, the second call reached the
// stock simulator's method (seen in CI: two RelocateVM_Task calls on one VM both "succeeded",
// one of them the stock relocation that moves no file).
type sessionRoutes struct {
	mu sync.Mutex
	n  map[routeKey]int
}

type routeKey struct {
	session *simulator.Session
	ref     types.ManagedObjectReference
}

var routes = &sessionRoutes{n: map[routeKey]int{}}

// enter places w in the caller's session registry for this call; the session to hand to leave, nil without one.
func (s *sessionRoutes) enter(ctx *simulator.Context, w mo.Reference) *simulator.Session {
	if ctx.Session == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := routeKey{ctx.Session, w.Reference()}
	if s.n[k] == 0 {
		ctx.Session.Put(w)
	}
	s.n[k]++
	return ctx.Session
}

// leave ends one call entered on ref; the wrapper leaves the session registry after the last.
func (s *sessionRoutes) leave(ctx *simulator.Context, session *simulator.Session, ref types.ManagedObjectReference) {
	if session == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := routeKey{session, ref}
	if s.n[k]--; s.n[k] <= 0 {
		delete(s.n, k)
		session.Registry.Remove(ctx, ref)
	}
}
