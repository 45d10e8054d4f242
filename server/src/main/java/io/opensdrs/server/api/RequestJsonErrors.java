package io.opensdrs.server.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a refused request body is told, in the API's terms: "must be an integer", never the Java type
 * or the parser's own words (which name classes and limits of the server's insides).
 */
final class RequestJsonErrors {

    private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '([^']*)'");

    private RequestJsonErrors() {
    }

    static String message(JsonMappingException j) {
        if (j instanceof InvalidNullException) {
            return "must not be null";
        }
        if (j instanceof UnrecognizedPropertyException u) {
            Collection<Object> known = u.getKnownPropertyIds();
            return "is not a property of this request" + (known == null || known.isEmpty() ? ""
                    : "; it takes " + new TreeSet<>(known.stream().map(String::valueOf).toList()));
        }
        if (j instanceof MismatchedInputException m && m.getTargetType() != null) {
            return "must be " + kind(m.getTargetType());
        }
        return "has a value of the wrong shape";
    }

    /**
     * The field given twice in one object, with the object's path ("moves[0].vmId"), when that is why
     * the body was refused; null otherwise. The parser finds it; databind may have wrapped the parser's
     * exception with the path to the object.
     */
    static String duplicateKey(Throwable cause) {
        String prefix = null;
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof JsonMappingException j && prefix == null && !j.getPath().isEmpty()) {
                prefix = ApiErrors.fieldOf(j.getPath());
            }
            if (t instanceof StreamReadException r) {
                Matcher m = DUPLICATE.matcher(String.valueOf(r.getOriginalMessage()));
                if (m.find()) {
                    String at = prefix != null ? prefix : parserPath(r.getProcessor());
                    return at.isEmpty() ? m.group(1) : at + "." + m.group(1);
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /** Where the parser stands, as the API names a field: the object holding the current key. */
    private static String parserPath(JsonParser p) {
        if (p == null || p.getParsingContext() == null || p.getParsingContext().getParent() == null) {
            return "";
        }
        return p.getParsingContext().getParent().pathAsPointer().toString().replaceFirst("^/", "").replace('/', '.')
                .replaceAll("\\.(\\d+)(?=\\.|$)", "[$1]").replaceAll("^(\\d+)", "[$1]");
    }

    /** A Java type as a JSON client sees it. */
    static String kind(Class<?> type) {
        if (type == null) {
            return "a value of the expected kind";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class || type == Short.class
                || type == short.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (CharSequence.class.isAssignableFrom(type)) {
            return "a string";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(String::valueOf).collect(Collectors.joining(", "));
        }
        if (type == Duration.class) {
            return "an ISO-8601 duration such as PT1H";
        }
        if (type == Instant.class) {
            return "an ISO-8601 time such as 2026-01-01T00:00:00Z";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "an object";
        }
        return "an object";
    }
}
