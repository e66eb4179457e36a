(define (domain blocksworld-4ops)
    (:requirements :strips)
    (:predicates (clear ?x)  (handempty) (holding ?x)  (on ?x ?y)  (ontable ?x))
    (:action pick-up
        :parameters (?ob)
        :precondition (and (clear ?ob) (ontable ?ob) (handempty))
        :effect (and (holding ?ob) (not (clear ?ob)) (not (ontable ?ob)) (not (handempty)))
    )
     (:action put-down
        :parameters (?ob)
        :precondition (holding ?ob)
        :effect (and (clear ?ob) (handempty) (ontable ?ob) (not (holding ?ob)))
    )
     (:action stack
        :parameters (?ob ?underob)
        :precondition (and (clear ?underob) (holding ?ob))
        :effect (and (handempty) (clear ?ob) (on ?ob ?underob) (not (clear ?underob)) (not (holding ?ob)))
    )
     (:action unstack
        :parameters (?ob ?underob)
        :precondition (and (on ?ob ?underob) (clear ?ob) (handempty))
        :effect (and (holding ?ob) (clear ?underob) (not (on ?ob ?underob)) (not (clear ?ob)) (not (handempty)))
    )
)