package io.opensdrs.balance;

/**
 * Whether the applier may execute a move unattended (SPEC §4): the VM's override wins
 * (manual → never, automated → always, excluded → never); otherwise the subsystem's level for
 * the move's reason (space, IO, rule enforcement, evacuation) or, when unset, the cluster's.
 * Manual never moves anything: every move is then only a recommendation.
 */
public final class AutomationPolicy {

    private AutomationPolicy() {
    }

    public static boolean autoApplicable(BalancingSettings settings, ReasonCode reason, VmOverride override) {
        switch (override) {
            case EXCLUDED:
            case MANUAL:
                return false;
            case AUTOMATED:
                return true;
            default:
                return settings.automationFor(reason) == AutomationLevel.AUTOMATED;
        }
    }
}
