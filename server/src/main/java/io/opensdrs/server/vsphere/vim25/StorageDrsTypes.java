package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.XmlValue;

import javax.xml.XMLConstants;
import java.util.ArrayList;
import java.util.List;

/**
 * Data types of a StoragePod's Storage DRS configuration and of the StorageResourceManager's
 * ConfigureStorageDrsForPod_Task, which changes it (vim25 WSDL names).
 */
public final class StorageDrsTypes {
    private StorageDrsTypes() {
    }

    @XmlType(name = "StoragePodSummary")
    public static class StoragePodSummary {
        public String name;
        public long capacity;
        public long freeSpace;
    }

    /** StoragePod.podStorageDrsEntry.storageDrsConfig: the pod's Storage DRS settings and rules. */
    @XmlType(name = "StorageDrsConfigInfo")
    public static class StorageDrsConfigInfo {
        public StorageDrsPodConfigInfo podConfig;
        public List<StorageDrsVmConfigInfo> vmConfig = new ArrayList<>();
    }

    @XmlType(name = "StorageDrsPodConfigInfo")
    public static class StorageDrsPodConfigInfo {
        public boolean enabled;
        public boolean ioLoadBalanceEnabled;
        public String defaultVmBehavior;
        public Integer loadBalanceInterval;
        public Boolean defaultIntraVmAffinity;
        public StorageDrsSpaceLoadBalanceConfig spaceLoadBalanceConfig;
        public StorageDrsIoLoadBalanceConfig ioLoadBalanceConfig;
        public StorageDrsAutomationConfig automationOverrides;
        /** Inter-VM rules; Storage DRS keeps VM anti-affinity rules ({@link ClusterAntiAffinityRuleSpec}). */
        public List<ClusterRuleInfo> rule = new ArrayList<>();
        /** The pod's advanced options (the vSphere Client's Storage DRS "Advanced Options"), by key. */
        public List<OptionValue> option = new ArrayList<>();
    }

    /** An advanced option as vCenter holds it: a key and a value (xsd:anyType; vCenter types these xsd:string). */
    @XmlType(name = "OptionValue", propOrder = {"key", "value"})
    public static class OptionValue {
        public String key;
        public Object value;
    }

    /** The pod's space balancing thresholds (the vSphere Client's "Space balance threshold"). */
    @XmlType(name = "StorageDrsSpaceLoadBalanceConfig", propOrder = {"spaceThresholdMode", "spaceUtilizationThreshold",
            "freeSpaceThresholdGB", "minSpaceUtilizationDifference"})
    public static class StorageDrsSpaceLoadBalanceConfig {
        public String spaceThresholdMode;
        public Integer spaceUtilizationThreshold;
        public Integer freeSpaceThresholdGB;
        public Integer minSpaceUtilizationDifference;
    }

    /** The pod's IO balancing thresholds; the reservable ones belong to vSphere's own IO reservations. */
    @XmlType(name = "StorageDrsIoLoadBalanceConfig", propOrder = {"reservablePercentThreshold", "reservableIopsThreshold",
            "reservableThresholdMode", "ioLatencyThreshold", "ioLoadImbalanceThreshold"})
    public static class StorageDrsIoLoadBalanceConfig {
        public Integer reservablePercentThreshold;
        public Integer reservableIopsThreshold;
        public String reservableThresholdMode;
        public Integer ioLatencyThreshold;
        public Integer ioLoadImbalanceThreshold;
    }

    /** Automation per Storage DRS subsystem; a blank mode follows the pod's defaultVmBehavior. */
    @XmlType(name = "StorageDrsAutomationConfig", propOrder = {"spaceLoadBalanceAutomationMode", "ioLoadBalanceAutomationMode",
            "ruleEnforcementAutomationMode", "policyEnforcementAutomationMode", "vmEvacuationAutomationMode"})
    public static class StorageDrsAutomationConfig {
        public String spaceLoadBalanceAutomationMode;
        public String ioLoadBalanceAutomationMode;
        public String ruleEnforcementAutomationMode;
        public String policyEnforcementAutomationMode;
        public String vmEvacuationAutomationMode;
    }

    /** The change ConfigureStorageDrsForPod_Task applies (with modify=true, only what is set). */
    @XmlType(name = "StorageDrsConfigSpec", propOrder = {"podConfigSpec", "vmConfigSpec"})
    public static class StorageDrsConfigSpec {
        public StorageDrsPodConfigSpec podConfigSpec;
        public List<StorageDrsVmConfigSpec> vmConfigSpec = new ArrayList<>();
    }

    /** One change of a VM's settings (an ArrayUpdateSpec: add, edit, or remove by the VM's reference). */
    @XmlType(name = "StorageDrsVmConfigSpec", propOrder = {"operation", "removeKey", "info"})
    public static class StorageDrsVmConfigSpec {
        public String operation;
        /** anyType in the WSDL; a {@link ManagedObjectReference} here, which JAXB writes with its xsi:type. */
        public Object removeKey;
        public StorageDrsVmConfigInfo info;
    }

    /** The element order is the WSDL's; what the server never sets (loadBalanceInterval) is left out. */
    @XmlType(name = "StorageDrsPodConfigSpec", propOrder = {"enabled", "ioLoadBalanceEnabled", "defaultVmBehavior", "defaultIntraVmAffinity",
            "spaceLoadBalanceConfig", "ioLoadBalanceConfig", "automationOverrides", "rule", "option"})
    public static class StorageDrsPodConfigSpec {
        public Boolean enabled;
        public Boolean ioLoadBalanceEnabled;
        public String defaultVmBehavior;
        public Boolean defaultIntraVmAffinity;
        public StorageDrsSpaceLoadBalanceConfig spaceLoadBalanceConfig;
        public StorageDrsIoLoadBalanceConfig ioLoadBalanceConfig;
        public StorageDrsAutomationConfig automationOverrides;
        public List<ClusterRuleSpec> rule = new ArrayList<>();
        public List<StorageDrsOptionSpec> option = new ArrayList<>();
    }

    /** One change of the pod's advanced options (an ArrayUpdateSpec keyed by the option's key). */
    @XmlType(name = "StorageDrsOptionSpec", propOrder = {"operation", "removeKey", "option"})
    public static class StorageDrsOptionSpec {
        public String operation;
        public XsdString removeKey;
        public OptionValueSpec option;
    }

    /**
     * An OptionValue to send: govmomi (vcsim) finds the concrete type of an interface-typed element
     * only by its {@code xsi:type}, so it is written, as {@link XsdInt} writes its own.
     */
    @XmlType(name = "", propOrder = {"key", "value"})
    public static class OptionValueSpec {
        @XmlAttribute(name = "type", namespace = XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI)
        public String type = "OptionValue";
        public String key;
        public XsdString value;

        public OptionValueSpec() {
        }

        public OptionValueSpec(String key, String value) {
            this.key = key;
            this.value = new XsdString(value);
        }
    }

    /** A string where the WSDL says xsd:anyType, typed {@code xsd:string} (see {@link XsdInt}). */
    @XmlType(name = "")
    public static class XsdString {
        @XmlAttribute(name = "type", namespace = XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI)
        public String type = "xsd:string";
        @XmlValue
        public String value;

        public XsdString() {
        }

        public XsdString(String value) {
            this.value = value;
        }
    }

    /** One change of the pod's rules (an ArrayUpdateSpec: add, edit, or remove by the rule's key). */
    @XmlType(name = "ClusterRuleSpec", propOrder = {"operation", "removeKey", "info"})
    public static class ClusterRuleSpec {
        public String operation;
        public XsdInt removeKey;
        public ClusterRuleInfo info;
    }

    /**
     * An int where the WSDL says xsd:anyType (ArrayUpdateSpec.removeKey). JAXB would type an
     * Integer with a prefix of its own choosing ({@code xs:int}); vCenter resolves the prefix, but
     * govmomi (vcsim) matches the literal {@code xsd:int}, so the attribute is written as such and
     * the envelope declares {@code xsd}.
     */
    @XmlType(name = "")
    public static class XsdInt {
        @XmlAttribute(name = "type", namespace = XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI)
        public String type = "xsd:int";
        @XmlValue
        public int value;

        public XsdInt() {
        }

        public XsdInt(int value) {
            this.value = value;
        }
    }

    /** A VM's own Storage DRS settings: keep its VMDKs together, its VMDK anti-affinity rule. */
    @XmlType(name = "StorageDrsVmConfigInfo", propOrder = {"vm", "enabled", "behavior", "intraVmAffinity", "intraVmAntiAffinity"})
    public static class StorageDrsVmConfigInfo {
        public ManagedObjectReference vm;
        public Boolean enabled;
        public String behavior;
        public Boolean intraVmAffinity;
        public VirtualDiskAntiAffinityRuleSpec intraVmAntiAffinity;
    }

    @XmlType(name = "ClusterRuleInfo", propOrder = {"key", "enabled", "name"})
    @XmlSeeAlso({ClusterAntiAffinityRuleSpec.class, VirtualDiskAntiAffinityRuleSpec.class})
    public static class ClusterRuleInfo {
        public Integer key;
        public Boolean enabled;
        public String name;
    }

    @XmlType(name = "ClusterAntiAffinityRuleSpec", propOrder = {"vm"})
    public static class ClusterAntiAffinityRuleSpec extends ClusterRuleInfo {
        public List<ManagedObjectReference> vm = new ArrayList<>();
    }

    @XmlType(name = "VirtualDiskAntiAffinityRuleSpec", propOrder = {"diskId"})
    public static class VirtualDiskAntiAffinityRuleSpec extends ClusterRuleInfo {
        public List<Integer> diskId = new ArrayList<>();
    }

    @XmlType(name = "ConfigureStorageDrsForPodRequestType", propOrder = {"self", "pod", "spec", "modify"})
    public static class ConfigureStorageDrsForPodRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public ManagedObjectReference pod;
        public StorageDrsConfigSpec spec;
        public boolean modify;
    }
}
