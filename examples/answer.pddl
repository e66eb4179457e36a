Sure! Here is the problem in PDDL (the blocks are named after their colours):

```pddl
(define (problem tower)
  (:domain blocksworld)
  (:objects red green blue)
  (:init (arm-empty) (on-table green) (on red green) (clear red) (on-table blue) (clear blue))
  (:goal (and (on blue red) (on red green))))
```
