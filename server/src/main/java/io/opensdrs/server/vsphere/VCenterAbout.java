package io.opensdrs.server.vsphere;

/** What vCenter says about itself (ServiceContent.about). */
public record VCenterAbout(String fullName, String apiType, String apiVersion, String instanceUuid) {
}
