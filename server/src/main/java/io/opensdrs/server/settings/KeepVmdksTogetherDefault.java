package io.opensdrs.server.settings;

import io.opensdrs.server.vcenter.VCenterProperties;
import io.opensdrs.server.vcenter.VCenterRefusedException;
import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;

/**
 * A datastore cluster's "Keep VMDKs together by default" (SPEC §4: intra-VM affinity, on by
 * default) has one value, held in two places: vCenter's pod ({@code podConfig.defaultIntraVmAffinity},
 * what the vSphere Client's Storage DRS settings edit) and this server's {@code keepVmdksTogether}.
 * The inventory sync adopts what vCenter holds; a change made through this server is made in
 * vCenter first ({@code ConfigureStorageDrsForPod_Task}), and only once vCenter holds it is it
 * stored here, so a refusal changes nothing. A vCenter that leaves the pod's value unset (the
 * stock simulator) leaves the server's setting in force.
 */
@Component
public class KeepVmdksTogetherDefault {

    private static final Logger log = LoggerFactory.getLogger(KeepVmdksTogetherDefault.class);
    static final String FIELD = "keepVmdksTogether";

    private final ClusterSettingsRepository settings;
    private final ObjectProvider<VSphereClient> clients;
    private final Duration timeout;

    public KeepVmdksTogetherDefault(ClusterSettingsRepository settings, ObjectProvider<VSphereClient> clients,
                                    VCenterProperties vcenter) {
        this.settings = settings;
        this.clients = clients;
        this.timeout = vcenter.getTimeout();
    }

    /**
     * The inventory sync saw the pod: vCenter's value, when it holds one, becomes this server's.
     * Called inside the sync's transaction.
     */
    public void adopt(String podId, Boolean vcenterValue) {
        if (vcenterValue == null) {
            return;
        }
        ClusterSettings s = settings.findById(podId).orElseGet(() -> ClusterSettings.defaults(podId));
        if (s.isKeepVmdksTogether() != vcenterValue) {
            log.info("{}: keep VMDKs together by default is {} in vCenter; the server follows", podId, vcenterValue);
            s.setKeepVmdksTogether(vcenterValue);
            s.setUpdatedAt(Instant.now());
            settings.save(s);
        }
    }

    /**
     * Makes vCenter hold {@code wanted} for the pod before the server stores it. Nothing is asked
     * of vCenter when the value does not change or no vCenter is connected.
     *
     * @param current the server's value now
     * @throws VCenterRefusedException when vCenter fails the call or the task, the task does not
     *                                 finish within the vCenter timeout ({@code Timedout}), or vCenter then holds another value
     */
    public void apply(String podId, boolean current, boolean wanted) {
        VSphereClient client = clients.getIfAvailable();
        if (client == null || current == wanted) {
            return;
        }
        try {
            client.completeTask(client.configureDefaultIntraVmAffinity(podId, wanted), timeout);
            StorageDrsRules held = client.storageDrsRules(podId);
            if (!Boolean.valueOf(wanted).equals(held.defaultKeepTogether())) {
                throw new VCenterRefusedException(FIELD, "vCenter completed ConfigureStorageDrsForPod_Task but holds "
                        + "podConfig.defaultIntraVmAffinity = " + held.defaultKeepTogether() + ", not " + wanted);
            }
        } catch (VimFaultException e) {
            throw new VCenterRefusedException(FIELD, "vCenter refused podConfig.defaultIntraVmAffinity = " + wanted + ": "
                    + e.getMessage());
        }
        log.info("{}: keep VMDKs together by default set to {} in vCenter", podId, wanted);
    }
}
