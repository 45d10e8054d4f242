package io.opensdrs.balance;

import java.util.List;

/** Why a move is recommended, in words and in numbers for every datastore it affects. */
public record Explanation(String summary, List<DatastoreForecast> datastores) {

    public Explanation {
        datastores = List.copyOf(datastores);
    }
}
