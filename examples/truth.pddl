; Ground truth: b1 on b2 on the table, b3 beside them; goal: one tower b3 on b1 on b2.
(define (problem stack-three)
  (:domain blocksworld)
  (:objects b1 b2 b3)
  (:init (arm-empty) (on-table b2) (on b1 b2) (clear b1) (on-table b3) (clear b3))
  (:goal (and (on b3 b1) (on b1 b2) (on-table b2))))
