/**
 * The vim25 implementation of {@link io.opensdrs.server.vsphere.VSphereClient}, split by managed
 * object as govmomi's {@code object} package is: each class holds the methods the server calls on
 * one kind of object, named after the API method, and the reading of its answers into the
 * interface's records. {@link io.opensdrs.server.vsphere.object.Vim25VSphereClient} holds the
 * {@link io.opensdrs.server.vsphere.object.Session} and hands each call to its object.
 */
package io.opensdrs.server.vsphere.object;
