package io.opensdrs.server.api;

import com.fasterxml.jackson.databind.JsonMappingException;
import io.opensdrs.server.problems.InvalidFieldException;
import io.opensdrs.server.problems.NotFoundException;
import io.opensdrs.server.stats.StatisticsWarmingException;
import io.opensdrs.server.vcenter.VCenterRefusedException;
import jakarta.validation.ConstraintViolationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.validation.method.ParameterErrors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Every bad request as an RFC 7807 problem detail naming the offending field (SPEC §5): property
 * {@code field} (the first) and {@code errors} (every field with its message). Handlers run
 * before the controller's method body, so a refused request has changed nothing.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class ApiErrors {

    private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);

    @ExceptionHandler(MethodArgumentNotValidException.class)
    ProblemDetail body(MethodArgumentNotValidException e) {
        List<Map<String, String>> errors = new ArrayList<>();
        for (FieldError f : e.getBindingResult().getFieldErrors()) {
            errors.add(error(f.getField(), f.getDefaultMessage()));
        }
        e.getBindingResult().getGlobalErrors().forEach(g -> errors.add(error(g.getObjectName(), g.getDefaultMessage())));
        return badRequest(errors);
    }

    @ExceptionHandler(HandlerMethodValidationException.class)
    ProblemDetail parameters(HandlerMethodValidationException e) {
        List<Map<String, String>> errors = new ArrayList<>();
        e.getParameterValidationResults().forEach(r -> {
            if (r instanceof ParameterErrors) {
                // a @Valid body validated together with constrained path or query parameters
                ((ParameterErrors) r).getFieldErrors().forEach(f -> errors.add(error(f.getField(), f.getDefaultMessage())));
            } else {
                r.getResolvableErrors().forEach(err -> errors.add(error(r.getMethodParameter().getParameterName(),
                        err.getDefaultMessage())));
            }
        });
        return badRequest(errors);
    }

    @ExceptionHandler(ConstraintViolationException.class)
    ProblemDetail constraints(ConstraintViolationException e) {
        List<Map<String, String>> errors = new ArrayList<>();
        e.getConstraintViolations().forEach(v -> {
            String path = v.getPropertyPath().toString();
            errors.add(error(path.substring(path.lastIndexOf('.') + 1), v.getMessage()));
        });
        return badRequest(errors);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ProblemDetail type(MethodArgumentTypeMismatchException e) {
        return badRequest(List.of(error(e.getName(), "must be " + RequestJsonErrors.kind(e.getRequiredType()) + ", not '" + e.getValue() + "'")));
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ProblemDetail missing(MissingServletRequestParameterException e) {
        return badRequest(List.of(error(e.getParameterName(), "is required")));
    }

    @ExceptionHandler(InvalidFieldException.class)
    ProblemDetail invalid(InvalidFieldException e) {
        return badRequest(List.of(error(e.field(), e.getMessage())));
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ProblemDetail unreadable(HttpMessageNotReadableException e) {
        String duplicate = RequestJsonErrors.duplicateKey(e.getCause());
        if (duplicate != null) {
            return badRequest(List.of(error(duplicate, "is given twice; give each property once")));
        }
        if (e.getCause() instanceof JsonMappingException j) {
            String field = fieldOf(j.getPath());
            if (!field.isEmpty()) {
                return badRequest(List.of(error(field, RequestJsonErrors.message(j))));
            }
        }
        return badRequest(List.of(error("body", "the request body is not valid JSON of the expected shape")));
    }

    /** Jackson's path as the API names a field: {@code moves[0].diskKeys[1]}. */
    static String fieldOf(List<JsonMappingException.Reference> path) {
        return path.stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    @ExceptionHandler(NotFoundException.class)
    ProblemDetail notFound(NotFoundException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
        p.setTitle("Not found");
        return p;
    }

    @ExceptionHandler(VCenterRefusedException.class)
    ProblemDetail vcenterRefused(VCenterRefusedException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_GATEWAY, e.field() + ": " + e.getMessage());
        p.setTitle("vCenter refused the change");
        p.setProperty("field", e.field());
        return p;
    }

    /**
     * The percentiles are being rebuilt after the server's start: a 503 saying so, with how far the
     * replay is, rather than percentiles of part of the stored samples.
     */
    @ExceptionHandler(StatisticsWarmingException.class)
    ResponseEntity<ProblemDetail> warming(StatisticsWarmingException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
        p.setTitle("Statistics warming");
        p.setProperty("warming", true);
        p.setProperty("replayedSamples", e.replayedSamples());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, "5").body(p);
    }

    @ExceptionHandler(IllegalStateException.class)
    ProblemDetail conflict(IllegalStateException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        p.setTitle("Conflict");
        return p;
    }

    /**
     * The database refused or lost a write: a 500 saying so, with the database's own words, rather
     * than a bare "Internal Server Error". What the request records in one transaction (a run, an
     * evacuation) has left nothing behind.
     */
    @ExceptionHandler(DataAccessException.class)
    ProblemDetail database(DataAccessException e) {
        log.error("database error answering a request", e);
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "the server's database refused the request's changes: " + e.getMostSpecificCause().getMessage());
        p.setTitle("Database error");
        return p;
    }

    private static Map<String, String> error(String field, String message) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("field", field);
        m.put("message", message);
        return m;
    }

    private static ProblemDetail badRequest(List<Map<String, String>> errors) {
        ProblemDetail p = ProblemDetail.forStatus(HttpStatus.BAD_REQUEST);
        p.setTitle("Invalid request");
        p.setDetail(errors.stream().map(e -> e.get("field") + ": " + e.get("message")).collect(Collectors.joining("; ")));
        if (!errors.isEmpty()) {
            p.setProperty("field", errors.get(0).get("field"));
        }
        p.setProperty("errors", errors);
        return p;
    }
}
