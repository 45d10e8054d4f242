package io.opensdrs.server.settings;

import org.springframework.data.jpa.repository.JpaRepository;

public interface ClusterSettingsRepository extends JpaRepository<ClusterSettings, String> {
}
