package io.opensdrs.scenario;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Reads scenario files (SPEC §7): JSON syntax, then the JSON Schema
 * {@code scenario.schema.json} (types, ranges, unknown fields), then the world's
 * consistency ({@link ScenarioConsistency}). Every error names the field path; a file with
 * any error yields no {@link Scenario}.
 */
public final class ScenarioLoader {
    /** Classpath location of the schema, the authority on the format. */
    public static final String SCHEMA_RESOURCE = "/io/opensdrs/scenario/scenario.schema.json";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final JsonSchema SCHEMA = loadSchema();

    private ScenarioLoader() {
    }

    private static JsonSchema loadSchema() {
        try (InputStream in = ScenarioLoader.class.getResourceAsStream(SCHEMA_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("scenario schema missing from the classpath: " + SCHEMA_RESOURCE);
            }
            SchemaValidatorsConfig config = SchemaValidatorsConfig.builder()
                    .pathType(PathType.JSON_PATH)
                    .build();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in, config);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads and validates a scenario file. */
    public static Scenario load(Path file) throws InvalidScenarioException {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new InvalidScenarioException(file.toString(), List.of(new ScenarioError("$", "no such file")));
        } catch (IOException e) {
            throw new InvalidScenarioException(file.toString(),
                    List.of(new ScenarioError("$", "cannot read the file: " + e.getMessage())));
        }
        return parse(text, file.toString());
    }

    /** Validates a scenario held as text; {@code source} names it in errors. */
    public static Scenario parse(String json, String source) throws InvalidScenarioException {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            throw new InvalidScenarioException(source,
                    List.of(new ScenarioError("$", "not valid JSON" + where + ": " + e.getOriginalMessage())));
        }
        if (tree == null || tree.isMissingNode()) {
            throw new InvalidScenarioException(source, List.of(new ScenarioError("$", "empty document")));
        }

        List<ScenarioError> errors = schemaErrors(tree);
        if (!errors.isEmpty()) {
            throw new InvalidScenarioException(source, errors);
        }
        Scenario scenario;
        try {
            scenario = MAPPER.treeToValue(tree, Scenario.class);
        } catch (JsonProcessingException e) {
            // The schema should have caught it; still report rather than fail obscurely.
            throw new InvalidScenarioException(source,
                    List.of(new ScenarioError(jacksonPath(e), e.getOriginalMessage())));
        }
        errors = new ArrayList<>(ScenarioConsistency.check(scenario));
        if (!errors.isEmpty()) {
            Collections.sort(errors);
            throw new InvalidScenarioException(source, errors);
        }
        return scenario;
    }

    private static List<ScenarioError> schemaErrors(JsonNode tree) {
        Set<ValidationMessage> messages = SCHEMA.validate(tree);
        List<ScenarioError> errors = new ArrayList<>();
        for (ValidationMessage m : messages) {
            String path = m.getInstanceLocation().toString();
            // additionalProperties and required report the parent object; the field is the property.
            if (m.getProperty() != null && ("additionalProperties".equals(m.getType())
                    || "required".equals(m.getType()) || "unevaluatedProperties".equals(m.getType()))) {
                path = path + "." + m.getProperty();
            }
            String text = m.getMessage();
            String prefix = m.getInstanceLocation().toString() + ": ";
            if (text.startsWith(prefix)) {
                text = text.substring(prefix.length());
            }
            errors.add(new ScenarioError(path, text));
        }
        Collections.sort(errors);
        return errors;
    }

    private static String jacksonPath(JsonProcessingException e) {
        if (e instanceof com.fasterxml.jackson.databind.JsonMappingException jm) {
            StringBuilder sb = new StringBuilder("$");
            for (var ref : jm.getPath()) {
                if (ref.getFieldName() != null) {
                    sb.append('.').append(ref.getFieldName());
                } else {
                    sb.append('[').append(ref.getIndex()).append(']');
                }
            }
            return sb.toString();
        }
        return "$";
    }
}
