package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.bind.annotation.XmlType;

import java.util.ArrayList;
import java.util.List;

/** Data types of the PerformanceManager (vim25 WSDL names): counters and QueryPerf in CSV format. */
public final class PerformanceTypes {
    private PerformanceTypes() {
    }

    @XmlType(name = "ElementDescription", propOrder = {"label", "summary", "key"})
    public static class ElementDescription {
        public String label;
        public String summary;
        public String key;
    }

    /**
     * One counter of {@code PerformanceManager.perfCounter}: its key (the id QueryPerf takes, which
     * differs between vCenters), group, name, unit and rollup ({@code virtualDisk}, {@code readOIO},
     * {@code number}, {@code latest}: "virtualDisk.readOIO.latest").
     */
    @XmlType(name = "PerfCounterInfo", propOrder = {"key", "nameInfo", "groupInfo", "unitInfo", "rollupType",
            "statsType", "level", "perDeviceLevel", "associatedCounterId"})
    public static class PerfCounterInfo {
        public int key;
        public ElementDescription nameInfo;
        public ElementDescription groupInfo;
        public ElementDescription unitInfo;
        public String rollupType;
        public String statsType;
        public Integer level;
        public Integer perDeviceLevel;
        public List<Integer> associatedCounterId = new ArrayList<>();
    }

    @XmlType(name = "ArrayOfPerfCounterInfo")
    public static class ArrayOfPerfCounterInfo {
        @XmlElement(name = "PerfCounterInfo")
        public List<PerfCounterInfo> items = new ArrayList<>();
    }

    /** A counter on one instance; {@code "*"} asks for every instance, {@code ""} for the aggregate. */
    @XmlType(name = "PerfMetricId", propOrder = {"counterId", "instance"})
    public static class PerfMetricId {
        public int counterId;
        public String instance;

        public PerfMetricId() {
        }

        public PerfMetricId(int counterId, String instance) {
            this.counterId = counterId;
            this.instance = instance;
        }
    }

    /**
     * One entity's query. {@code startTime} is exclusive and {@code endTime} inclusive (xsd:dateTime
     * strings, UTC); {@code intervalId} 20 is the realtime interval; {@code format} {@code csv}.
     */
    @XmlType(name = "PerfQuerySpec", propOrder = {"entity", "startTime", "endTime", "maxSample", "metricId",
            "intervalId", "format"})
    public static class PerfQuerySpec {
        public ManagedObjectReference entity;
        public String startTime;
        public String endTime;
        public Integer maxSample;
        public List<PerfMetricId> metricId = new ArrayList<>();
        public Integer intervalId;
        public String format;
    }

    @XmlType(name = "PerfEntityMetricBase", propOrder = {"entity"})
    @XmlSeeAlso({PerfEntityMetricCSV.class, PerfEntityMetric.class})
    public static class PerfEntityMetricBase {
        public ManagedObjectReference entity;
    }

    /** {@code sampleInfoCSV}: "interval,timestamp,interval,timestamp,..."; each series' values comma-separated. */
    @XmlType(name = "PerfEntityMetricCSV", propOrder = {"sampleInfoCSV", "value"})
    public static class PerfEntityMetricCSV extends PerfEntityMetricBase {
        public String sampleInfoCSV;
        public List<PerfMetricSeriesCSV> value = new ArrayList<>();
    }

    /** The normal format; this client asks for CSV, and a vCenter answering normal is refused by name. */
    @XmlType(name = "PerfEntityMetric")
    public static class PerfEntityMetric extends PerfEntityMetricBase {
    }

    @XmlType(name = "PerfMetricSeriesCSV", propOrder = {"id", "value"})
    public static class PerfMetricSeriesCSV {
        public PerfMetricId id;
        public String value;
    }

    @XmlType(name = "QueryPerfRequestType", propOrder = {"self", "querySpec"})
    public static class QueryPerfRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public List<PerfQuerySpec> querySpec = new ArrayList<>();
    }
}
