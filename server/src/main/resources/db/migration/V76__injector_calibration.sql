-- A Romano calibration point (the agent's ShortCalibrationDesign): its design's outstanding IOs; NULL for
-- Pesto's injector runs. Calibration points feed Romano's fit and never Pesto's line of the newest run per size.
ALTER TABLE injector_run ADD COLUMN design_oio INTEGER;
