package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.bind.annotation.XmlType;

import java.util.ArrayList;
import java.util.List;

/** Data types of the PropertyCollector, ContainerView and WaitForUpdatesEx (vim25 WSDL names). */
public final class PropertyCollectorTypes {
    private PropertyCollectorTypes() {
    }

    @XmlType(name = "PropertySpec", propOrder = {"type", "all", "pathSet"})
    public static class PropertySpec {
        public String type;
        public Boolean all;
        public List<String> pathSet = new ArrayList<>();

        public PropertySpec() {
        }

        public PropertySpec(String type, List<String> paths) {
            this.type = type;
            this.pathSet = new ArrayList<>(paths);
        }
    }

    @XmlType(name = "SelectionSpec", propOrder = {"name"})
    @XmlSeeAlso(TraversalSpec.class)
    public static class SelectionSpec {
        public String name;
    }

    @XmlType(name = "TraversalSpec", propOrder = {"type", "path", "skip", "selectSet"})
    public static class TraversalSpec extends SelectionSpec {
        public String type;
        public String path;
        public Boolean skip;
        public List<SelectionSpec> selectSet = new ArrayList<>();

        public TraversalSpec() {
        }

        public TraversalSpec(String name, String type, String path) {
            this.name = name;
            this.type = type;
            this.path = path;
            this.skip = false;
        }
    }

    @XmlType(name = "ObjectSpec", propOrder = {"obj", "skip", "selectSet"})
    public static class ObjectSpec {
        public ManagedObjectReference obj;
        public Boolean skip;
        public List<SelectionSpec> selectSet = new ArrayList<>();

        public ObjectSpec() {
        }

        public ObjectSpec(ManagedObjectReference obj, boolean skip) {
            this.obj = obj;
            this.skip = skip;
        }
    }

    @XmlType(name = "PropertyFilterSpec", propOrder = {"propSet", "objectSet", "reportMissingObjectsInResults"})
    public static class PropertyFilterSpec {
        public List<PropertySpec> propSet = new ArrayList<>();
        public List<ObjectSpec> objectSet = new ArrayList<>();
        public Boolean reportMissingObjectsInResults;
    }

    @XmlType(name = "RetrieveOptions")
    public static class RetrieveOptions {
        public Integer maxObjects;
    }

    @XmlType(name = "RetrieveResult", propOrder = {"token", "objects"})
    public static class RetrieveResult {
        public String token;
        public List<ObjectContent> objects = new ArrayList<>();
    }

    @XmlType(name = "ObjectContent", propOrder = {"obj", "propSet", "missingSet"})
    public static class ObjectContent {
        public ManagedObjectReference obj;
        public List<DynamicProperty> propSet = new ArrayList<>();
        public List<MissingProperty> missingSet = new ArrayList<>();

        /** The value of a retrieved property, or null when it was not returned. */
        public Object get(String name) {
            for (DynamicProperty p : propSet) {
                if (p.name.equals(name)) {
                    return p.val;
                }
            }
            return null;
        }
    }

    @XmlType(name = "DynamicProperty", propOrder = {"name", "val"})
    public static class DynamicProperty {
        public String name;
        public Object val;
    }

    @XmlType(name = "MissingProperty", propOrder = {"path", "fault"})
    public static class MissingProperty {
        public String path;
        public TaskTypes.LocalizedMethodFault fault;
    }

    @XmlType(name = "WaitOptions", propOrder = {"maxWaitSeconds", "maxObjectUpdates"})
    public static class WaitOptions {
        public Integer maxWaitSeconds;
        public Integer maxObjectUpdates;
    }

    @XmlType(name = "UpdateSet", propOrder = {"version", "filterSet", "truncated"})
    public static class UpdateSet {
        public String version;
        public List<PropertyFilterUpdate> filterSet = new ArrayList<>();
        public Boolean truncated;
    }

    @XmlType(name = "PropertyFilterUpdate", propOrder = {"filter", "objectSet"})
    public static class PropertyFilterUpdate {
        public ManagedObjectReference filter;
        public List<ObjectUpdate> objectSet = new ArrayList<>();
    }

    @XmlType(name = "ObjectUpdate", propOrder = {"kind", "obj", "changeSet"})
    public static class ObjectUpdate {
        /** {@code enter}, {@code modify} or {@code leave}. */
        public String kind;
        public ManagedObjectReference obj;
        public List<PropertyChange> changeSet = new ArrayList<>();
    }

    @XmlType(name = "PropertyChange", propOrder = {"name", "op", "val"})
    public static class PropertyChange {
        public String name;
        /** {@code add}, {@code remove}, {@code assign} or {@code indirectRemove}. */
        public String op;
        public Object val;
    }

    @XmlType(name = "ArrayOfManagedObjectReference")
    public static class ArrayOfManagedObjectReference {
        @XmlElement(name = "ManagedObjectReference")
        public List<ManagedObjectReference> items = new ArrayList<>();
    }

    @XmlType(name = "ArrayOfString")
    public static class ArrayOfString {
        @XmlElement(name = "string")
        public List<String> items = new ArrayList<>();
    }

    @XmlType(name = "RetrievePropertiesExRequestType", propOrder = {"self", "specSet", "options"})
    public static class RetrievePropertiesExRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public List<PropertyFilterSpec> specSet = new ArrayList<>();
        @XmlElement(required = true)
        public RetrieveOptions options = new RetrieveOptions();
    }

    @XmlType(name = "ContinueRetrievePropertiesExRequestType", propOrder = {"self", "token"})
    public static class ContinueRetrievePropertiesExRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public String token;
    }

    @XmlType(name = "CreateFilterRequestType", propOrder = {"self", "spec", "partialUpdates"})
    public static class CreateFilterRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public PropertyFilterSpec spec;
        public boolean partialUpdates;
    }

    @XmlType(name = "WaitForUpdatesExRequestType", propOrder = {"self", "version", "options"})
    public static class WaitForUpdatesExRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public String version;
        public WaitOptions options;
    }

    @XmlType(name = "CreateContainerViewRequestType", propOrder = {"self", "container", "type", "recursive"})
    public static class CreateContainerViewRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public ManagedObjectReference container;
        public List<String> type = new ArrayList<>();
        public boolean recursive;
    }
}
