package io.opensdrs.server;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcOperations;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * SQL sits behind one repository per feature: only a class named {@code …Repository} talks to the
 * database through Spring's JDBC templates or client, so a reader finds every statement a feature runs
 * in one class, and a service or controller reads as what it decides rather than how rows are fetched.
 * The failure names each class outside a repository that uses one, and where.
 */
class RepositoriesTest {

    @Test
    void onlyRepositoriesUseJdbc() {
        noClasses().that().haveSimpleNameNotEndingWith("Repository")
                .should().dependOnClassesThat().belongToAnyOf(JdbcTemplate.class, JdbcOperations.class,
                        NamedParameterJdbcTemplate.class, NamedParameterJdbcOperations.class, JdbcClient.class)
                .as("only repositories (classes named ...Repository) should run SQL through JdbcTemplate, NamedParameterJdbcTemplate"
                        + " or JdbcClient")
                .check(FeaturePackagesTest.SERVER);
    }
}
